import { describe, expect, it } from 'vitest';
import { DHR_APPLICATION_NAME, dhrConnection } from './client';

describe('dhrConnection', () => {
  it("names every connection 'dhr', also when DATABASE_URL carries its own application_name (pg lets the URL win)", () => {
    expect(dhrConnection('postgres://dhr:secret@db.example:5432/dhr')).toEqual({
      connectionString: 'postgres://dhr:secret@db.example:5432/dhr',
      application_name: DHR_APPLICATION_NAME,
    });
    const named = dhrConnection('postgres://dhr:secret@db.example:5432/dhr?sslmode=require&application_name=other');
    expect(named.application_name).toBe('dhr');
    expect(named.connectionString).toBe('postgres://dhr:secret@db.example:5432/dhr?sslmode=require');
  });
});
