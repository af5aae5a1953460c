/** Ambient types for Vite (CSS imports, import.meta.env) in the web app. */
/// <reference types="vite/client" />

/** issue 22: this build's id (web/vite.config.ts), compared with /version.json for the old-build icon. */
declare const __CHORUS_BUILD__: string;
