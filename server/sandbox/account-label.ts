/** The login an issued token's account key encodes, or the key itself when it encodes none. */
export function accountLabel(account: string): string {
  const decoded = Buffer.from(account, 'base64url').toString('utf8');
  const printable = /^[\p{L}\p{N}@._+-]+$/u.test(decoded);
  return printable && Buffer.from(decoded).toString('base64url') === account ? decoded : account;
}
