import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteStartParams } from './client';
import { currentLane, runInBackground } from './lanes';
import { BACKGROUND_MAX_WAIT_MS, PgliteThread } from './pglite-thread';
import { answerListener, turnTaker } from '../lib/event-loop';
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('PgliteThread', () => {
  let t: PgliteThread;
  beforeAll(async () => {
    t = await PgliteThread.start(undefined, pgliteStartParams);
  }, 60_000);
  afterAll(async () => t.close());

  it('runs statements and transactions on its own thread', async () => {
    expect((await t.query('select 1 as n')).rows).toEqual([{ n: 1 }]);
    await t.exec('create table t (id int primary key)');
    await t.transaction(async (tx) => {
      await tx.query('insert into t values ($1)', [1]);
    });
    await expect(
      t.transaction(async (tx) => {
        await tx.query('insert into t values ($1)', [2]);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect((await t.query('select id from t order by id')).rows).toEqual([{ id: 1 }]);
    await expect(t.query('insert into t values (1)')).rejects.toMatchObject({ code: '23505' });
  });

  it('answers a request before the background statements waiting for the database, keeping each lane in order', async () => {
    await t.exec('create table lane_log (n serial primary key, who text not null)');
    const log = (who: string) => t.query('insert into lane_log (who) values ($1)', [who]);
    // A job's transaction is in the database; more of the job waits behind it.
    const running = runInBackground(() =>
      t.transaction(async (tx) => {
        await tx.query('select pg_sleep(0.3)');
        await tx.query("insert into lane_log (who) values ('job transaction')");
      }),
    );
    await sleep(50);
    const job = runInBackground(() => Promise.all(['job 1', 'job 2', 'job 3'].map(log)));
    const transactionAfter = runInBackground(() => t.transaction(async (tx) => tx.query("insert into lane_log (who) values ('job 4')")));
    await sleep(10);
    // Listeners' statements, sent after the job's: they wait only for the transaction already running.
    const requests = Promise.all(['request 1', 'request 2'].map(log));
    await Promise.all([running, job, transactionAfter, requests]);
    const order = (await t.query('select who from lane_log order by n')).rows.map((r) => (r as { who: string }).who);
    expect(order).toEqual(['job transaction', 'request 1', 'request 2', 'job 1', 'job 2', 'job 3', 'job 4']);
  });

  it('lets no background statement slip between two statements of one request', async () => {
    await t.exec('create table turn_log (n serial primary key, who text not null)');
    // The background lane rests after the last test's long transaction (BackgroundPacer): a short unit waits it out.
    await runInBackground(() => t.query('select 1'));
    const log = (who: string) => t.query('insert into turn_log (who) values ($1)', [who]);
    const running = runInBackground(() =>
      t.transaction(async (tx) => {
        await tx.query('select pg_sleep(0.2)');
        await tx.query("insert into turn_log (who) values ('job transaction')");
      }),
    );
    await sleep(50);
    const job = runInBackground(() => log('job 1'));
    await sleep(10);
    // A request that reads, then writes: its second statement is sent as its first is answered.
    const request = log('request read').then(() => log('request write'));
    await Promise.all([running, job, request]);
    const order = (await t.query('select who from turn_log order by n')).rows.map((r) => (r as { who: string }).who);
    expect(order).toEqual(['job transaction', 'request read', 'request write', 'job 1']);
  });

  it('lets background work go after giving way for a while, however busy the requests keep the database', async () => {
    const started = performance.now();
    // Two requests' statements in the database at every moment for 1.2 s.
    const busyFor = async (ms: number) => {
      while (performance.now() - started < ms) await t.query('select pg_sleep(0.05)');
    };
    const requests = Promise.all([busyFor(1_200), busyFor(1_200)]);
    await sleep(20);
    await runInBackground(() => t.query('select 1'));
    const background = performance.now() - started;
    await requests;
    // It gave way BACKGROUND_MAX_WAIT_MS, then waited for the two statements already in the database.
    expect(BACKGROUND_MAX_WAIT_MS).toBeLessThanOrEqual(200);
    expect(background).toBeLessThan(600);
    expect(performance.now() - started).toBeGreaterThan(1_100);
  });

  it("delivers the process's own NOTIFY at once, even while a job's transaction holds the database, and trigger NOTIFYs still arrive", async () => {
    const heard: string[] = [];
    const lanes: string[] = [];
    await t.listen('dhr_thread_probe', (payload) => {
      heard.push(payload);
      lanes.push(currentLane());
    });
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    const job = runInBackground(() =>
      t.transaction(async (tx) => {
        await tx.query('select 1');
        await held;
      }),
    );
    await sleep(20);
    await runInBackground(async () => t.notify('dhr_thread_probe', 'from this process'));
    // Through the database this waited for the job's transaction (one session): here it does not.
    await expect.poll(() => heard, { timeout: 1000 }).toEqual(['from this process']);
    release();
    await job;
    expect(() => t.notify('dhr_thread_probe', 'x'.repeat(8000))).toThrow('payload string too long');
    await t.query("select pg_notify('dhr_thread_probe', 'from the database')");
    await expect.poll(() => heard, { timeout: 1000 }).toEqual(['from this process', 'from the database']);
    // A job's NOTIFY is heard as the database's is: outside the job's lane.
    expect(lanes).toEqual(['foreground', 'foreground']);
  });

  it("does not hold a job's transaction open for a listener whose statement waits for it", async () => {
    await t.exec('create table held_log (n serial primary key, who text not null)');
    // A listener's request is being answered: its statement is sent while the job's transaction is open.
    const res = Object.assign(new EventEmitter(), { headersSent: false, writableEnded: false, destroyed: false });
    let request: Promise<unknown> = Promise.resolve();
    const started = performance.now();
    const job = runInBackground(() =>
      t.transaction(async (tx) => {
        await tx.query("insert into held_log (who) values ('job')");
        answerListener(res as unknown as ServerResponse, () => {
          request = t.query("insert into held_log (who) values ('request')").then(() => {
            res.headersSent = true;
            res.emit('finish');
          });
        });
        // The job's loop over many members: its turns would wait for that listener, who waits for the transaction.
        const takeTurn = turnTaker(0);
        for (let i = 0; i < 5; i++) await takeTurn();
      }),
    );
    await job;
    const jobMs = performance.now() - started;
    await request;
    expect(jobMs).toBeLessThan(80);
    const order = (await t.query('select who from held_log order by n')).rows.map((r) => (r as { who: string }).who);
    expect(order).toEqual(['job', 'request']);
  });
});
