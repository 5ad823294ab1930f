/**
 * What went wrong during one test that the test did not declare: the server's undeclared 5xx answers
 * and error logs (support/app.ts), a page's console and page errors (support/browser.ts). Checked
 * after each test; `expect` declares the trouble a test causes on purpose.
 */
export class Trouble {
  private events: string[] = [];
  private expected: RegExp | null = null;

  /** `what` names the trouble and `declare` the call that expects it, in the failure's message. */
  constructor(
    private readonly what: string,
    private readonly declare: string,
  ) {}

  add(event: string): void {
    this.events.push(event);
  }

  expect(pattern: RegExp): void {
    this.expected = pattern;
  }

  /** Throws when the test saw trouble it did not declare; clears for the next test either way. */
  check(): void {
    const unexpected = this.events.filter((e) => !this.expected?.test(e));
    this.events = [];
    this.expected = null;
    if (unexpected.length) throw new Error(`${this.what} the test did not expect (use ${this.declare}):\n${unexpected.slice(0, 10).join('\n')}`);
  }
}
