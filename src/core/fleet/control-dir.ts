// Where a running supervisor leaves the record the human's `roz` commands find
// it by (its pid, its control socket, its secret): a directory of its own in
// roz's store. The store is read-only to an enforced agent's Bash; this
// directory is also unreadable to it (sandbox denyRead, and a Read deny rule
// for the file tools), so an agent never learns the secret.

/** The directory's name inside roz's store. */
export const CONTROL_DIR_NAME = 'control';

/** `<store>/control` for an absolute store path. */
export function controlDirOf(store: string): string {
  return `${store.replace(/\/+$/, '')}/${CONTROL_DIR_NAME}`;
}
