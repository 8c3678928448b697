export * from './users';
export * from './media';
export * from './backoffice';
