// An error as the status line says it: the client's message, never a stack.
import { ApiError } from '../../api/errors.js';

export const errorText = (error: unknown): string =>
  error instanceof ApiError ? error.message : error instanceof Error ? error.message : String(error);

export const isAbort = (error: unknown): boolean => (error as { name?: string })?.name === 'AbortError';
