import { type ReactNode, createContext, useCallback, useContext, useMemo, useRef, useState } from 'react';

interface Expanded {
  isOpen(key: string, byDefault: boolean): boolean;
  toggle(key: string, byDefault: boolean): void;
}

const Context = createContext<Expanded>({ isOpen: (_key, byDefault) => byDefault, toggle: () => undefined });

/**
 * Which rows a person opened or closed, kept above the virtualized list: a row scrolled out of view and back
 * keeps its state.
 */
export function ExpandedProvider({ children }: { children: ReactNode }) {
  const overrides = useRef(new Map<string, boolean>());
  const [version, setVersion] = useState(0);
  const isOpen = useCallback((key: string, byDefault: boolean) => overrides.current.get(key) ?? byDefault, []);
  const toggle = useCallback((key: string, byDefault: boolean) => {
    overrides.current.set(key, !(overrides.current.get(key) ?? byDefault));
    setVersion((n) => n + 1);
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new value on each toggle re-renders the rows
  const value = useMemo(() => ({ isOpen, toggle }), [isOpen, toggle, version]);
  return <Context.Provider value={value}>{children}</Context.Provider>;
}

export function useExpanded(key: string, byDefault: boolean): [boolean, () => void] {
  const { isOpen, toggle } = useContext(Context);
  return [isOpen(key, byDefault), () => toggle(key, byDefault)];
}
