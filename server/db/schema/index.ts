export * from './users';
export * from './media';
