/** Whether `host` (a name or an address, IPv6 with or without brackets) is this machine's loopback. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return bare === 'localhost' || bare.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(bare) || bare === '::1';
}
