/** The settings feature's public surface for other features: the settings pages' title with its crumb. */
export { SettingsTitle } from './components/SettingsTitle.tsx';
