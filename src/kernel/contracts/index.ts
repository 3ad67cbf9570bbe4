export * from './access-context.js';
export * from './address.js';
export * from './audit-event.js';
export * from './contract-violation.js';
export * from './grant.js';
export * from './primitives.js';
export * from './resource.js';
export * from './tool.js';
