import crypto from 'node:crypto';

/**
 * This process's identity in engine_workers, also written into the names of its scratch folders,
 * so another process can tell which ones belong to a process that has died.
 */
export const processId = crypto.randomUUID();
