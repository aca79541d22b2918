/** `text` with the password of every URL in it (`//user:password@`) shown as `***`: connection URLs in messages. */
export function withoutPassword(text: string): string {
  return text.replace(/(\/\/[^/:@\s]*):[^/@\s]*@/g, '$1:***@');
}
