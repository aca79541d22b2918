/**
 * `T` as a request may send it: the properties named `K` optional, at every depth. The server fills them in with
 * their defaults; the protocol's types are the parsed shapes, where they are always present. The generated API
 * names, for each request body, the properties its schemas give a default.
 */
export type WithDefaults<T, K extends string> = T extends readonly (infer E)[]
  ? WithDefaults<E, K>[]
  : T extends object
    ? { [P in keyof T as P extends K ? never : P]: WithDefaults<T[P], K> } & {
        [P in keyof T as P extends K ? P : never]?: WithDefaults<T[P], K>;
      }
    : T;
