import { configDefaults, defineConfig } from 'vitest/config';

/** React components rendered in happy-dom (docs/conventions.md, "Adding a test"). */
const COMPONENT_TESTS = 'src/web/**/*.component.test.tsx';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'scripts/**/*.test.ts', 'lint/**/*.test.ts'],
          exclude: [...configDefaults.exclude, COMPONENT_TESTS],
          environment: 'node',
        },
      },
      {
        // Packages resolve as in the web build: tus-js-client's browser build, on XMLHttpRequest.
        resolve: { mainFields: ['browser', 'module', 'jsnext:main', 'jsnext'] },
        test: {
          name: 'component',
          include: [COMPONENT_TESTS],
          environment: 'happy-dom',
          setupFiles: ['src/web/test-support/setup.ts'],
        },
      },
      {
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          // Several processes behind nginx (tests/scale): needs PostgreSQL and nginx.
          name: 'scale',
          include: ['tests/scale/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 90_000,
          hookTimeout: 180_000,
          // One browser and one server at a time keep two cores responsive.
          fileParallelism: false,
        },
      },
    ],
  },
});
