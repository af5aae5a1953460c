/** Shell UI state shared with pages: the mobile navigation drawer. */
import { createContext, useContext } from 'react';

export interface ShellUi {
  drawerOpen: boolean;
  setDrawerOpen: (open: boolean) => void;
}

export const ShellContext = createContext<ShellUi>({ drawerOpen: false, setDrawerOpen: () => undefined });
export const useShell = (): ShellUi => useContext(ShellContext);
