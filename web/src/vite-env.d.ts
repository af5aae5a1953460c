/** Ambient types for Vite (CSS imports, import.meta.env) in the web app. */
/// <reference types="vite/client" />
