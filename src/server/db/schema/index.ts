// Every table, one file per domain. drizzle-kit reads this file to generate migrations.
export * from './members';
export * from './auth';
export * from './catalogue';
export * from './radio';
export * from './platforms';
export * from './supporters';
export * from './grants';
export * from './community';
export * from './news';
export * from './live';
export * from './submissions';
export * from './shop';
export * from './jobs';
