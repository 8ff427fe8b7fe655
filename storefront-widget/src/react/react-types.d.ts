// The few React APIs the bindings use, so the package typechecks without @types/react (consumers bring their own).
declare module "react" {
  export function useEffect(effect: () => void | (() => void), deps?: readonly unknown[]): void
  export function useRef<T>(initial: T | null): { current: T | null }
  export function useState<T>(initial: T): [T, (v: T) => void]
  // In a consumer's build this name resolves to @types/react's element type, so the components work in JSX.
  export interface ReactElement {}
  export function createElement(type: string, props?: Record<string, unknown> | null): ReactElement
}
