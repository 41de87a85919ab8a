// Talks to the emulator's /v1 routes over real HTTP with a Bearer key, and walks cursor pages.
import { expect } from 'vitest';
import type { EmulatorOptions } from '../../../../tools/emulator/index.js';
import { type ApiResponse, type Harness, startHarness } from '../harness.js';

interface V1CallOptions {
  /** Sent as `Authorization: Bearer <key>`. */
  readonly key?: string;
  /** Sent as X-Api-Key (which v1 must refuse). */
  readonly apiKeyHeader?: string;
  readonly body?: unknown;
  readonly query?: Record<string, string | number | boolean>;
}

export interface V1Harness extends Harness {
  call(method: string, path: string, options?: V1CallOptions): Promise<ApiResponse>;
  /** Every item of a list, following `nextPage` while `hasMore`; also answers the pages seen. */
  all(
    path: string,
    key: string,
    query?: Record<string, string | number>,
  ): Promise<{
    // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers field by field
    items: any[];
    pages: number[];
  }>;
}

export async function startV1(options: EmulatorOptions = {}): Promise<V1Harness> {
  const harness = await startHarness(options);
  const call = async (method: string, path: string, options: V1CallOptions = {}): Promise<ApiResponse> => {
    const headers: Record<string, string> = {};
    if (options.key !== undefined) headers.Authorization = `Bearer ${options.key}`;
    if (options.apiKeyHeader !== undefined) headers['X-Api-Key'] = options.apiKeyHeader;
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    const search = new URLSearchParams(
      Object.entries(options.query ?? {}).map(([name, value]): [string, string] => [name, String(value)]),
    );
    const response = await fetch(`${harness.emulator.v1Url}${path}${search.size ? `?${search}` : ''}`, {
      method,
      headers,
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    });
    const text = await response.text();
    return {
      status: response.status,
      body: text === '' ? undefined : JSON.parse(text),
      text,
      headers: response.headers,
    };
  };
  return {
    ...harness,
    call,
    async all(path, key, query = {}) {
      const items = [];
      const pages: number[] = [];
      let after: string | undefined;
      for (;;) {
        const response = await call('GET', path, { key, query: { ...query, ...(after ? { after } : {}) } });
        if (response.status !== 200) throw new Error(`${path}: ${response.status} ${response.text}`);
        items.push(...response.body.items);
        pages.push(response.body.items.length);
        if (!response.body.hasMore) return { items, pages };
        after = response.body.nextPage;
      }
    },
  };
}

/** v1's error body. */
export function v1Error(code: string) {
  return { code, message: expect.any(String) };
}
