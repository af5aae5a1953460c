/** The search feature's public surface (issue 14): the shell's Ctrl/Cmd+F dialog and the box above the chat list. */
export { GlobalSearch, openSearch } from './components/GlobalSearch.tsx';
export { SearchBox } from './components/SearchBox.tsx';
