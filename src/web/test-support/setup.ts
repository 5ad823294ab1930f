/**
 * Set-up of every component test (vitest project `component`): fake timers, a clean DOM, no stub
 * left from the test before, and a failure for any API request no route of the test answered.
 */
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, expect, vi } from 'vitest';
import { takeUnanswered } from './fake-fetch';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  localStorage.clear();
  sessionStorage.clear();
  expect(takeUnanswered(), 'requests no route of the test answered').toEqual([]);
});
