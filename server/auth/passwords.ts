import { hash, verify } from '@node-rs/argon2';

// OWASP's first recommended argon2id setting: 19 MiB, 2 iterations, 1 lane.
const argon2Options = {
  algorithm: 2 /* Argon2id; the package exports it as a const enum */,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

export function hashPassword(password: string): Promise<string> {
  return hash(password, argon2Options);
}

export function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return verify(passwordHash, password).catch(() => false);
}

// Verifying against this when the login is unknown keeps the answer time the same,
// so timing does not reveal which logins exist.
let decoyHash: Promise<string> | undefined;
export function decoyPasswordHash(): Promise<string> {
  decoyHash ??= hashPassword('decoy password that matches nothing');
  return decoyHash;
}
