// Every table, one file per owning module. drizzle-kit reads this file to generate migrations.
export * from './account';
export * from './auth';
export * from './chat';
export * from './comments';
export * from './contact';
export * from './grants';
export * from './jobs';
export * from './live';
export * from './members';
export * from './mixes';
export * from './news';
export * from './platforms';
export * from './profiles';
export * from './radio';
export * from './shop';
export * from './submissions';
export * from './tracks';
