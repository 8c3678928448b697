export * from './users';
export * from './media';
export * from './backoffice';
export * from './publishing';
