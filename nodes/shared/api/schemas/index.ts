/**
 * What the API accepts, as zod schemas: the one place for every request rule of the
 * specification, one file per resource. The node validates user input with these before
 * sending anything (the sandbox checks requests by its own reading of the specification,
 * so a rule the node gets wrong is not wrong there too). Where the specification says "not shown", the guess comes from
 * assumptions.ts.
 */
export * from './primitives';
export * from './recipients';
export * from './estamp';
export * from './signingSettings';
export * from './paging';
export * from './envelope';
export * from './template';
export * from './document';
export * from './workflow';
export * from './credit';
