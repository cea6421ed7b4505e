// Failures the network layer meets, in words. Most are met for real in the other files (refused,
// dropped, TLS, proxies); running out of descriptors cannot be set up inside the test process,
// so its error is made with the shape Node gives it (issue 18, item 8).
import { describe, expect, it } from 'vitest';
import { describeFailure } from '../../src/api/failures.js';

const context = { url: new URL('https://api.example.com/v1/'), proxy: undefined, connectMs: 5000, headersMs: 10_000, bodyMs: 10_000 };
const systemError = (code: string) => Object.assign(new Error(`connect ${code}`), { code, errno: -24, syscall: 'connect' });

describe('describeFailure', () => {
  it('EMFILE and ENFILE are "too many open files", not a network failure by code', () => {
    expect(describeFailure(systemError('EMFILE'), context).message).toBe(
      'cannot connect to api.example.com: too many open files (raise the limit with ulimit -n)',
    );
    expect(describeFailure(systemError('ENFILE'), context).message).toBe('cannot connect to api.example.com: too many open files on the system');
  });
});
