import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { AppState, AppStore } from '.';

export const StoreContext = createContext<AppStore | null>(null);

export function useAppStore(): AppStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useApp must be used inside <StoreContext.Provider>');
  return store;
}

/** Selects from the one store. Select primitives or stable references (zustand 5 compares with Object.is). */
export function useApp<T>(selector: (state: AppState) => T): T {
  return useStore(useAppStore(), selector);
}
