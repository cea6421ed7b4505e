// Removing a test's home after the app in it was told to end: the app may still be writing its
// files as it goes (its hang-up handling, a save, the history's checkpoint), so a directory that
// is not empty yet is tried again for up to 10 s. rmSync's own retries (1 s in all) once fell
// short on CI with ENOTEMPTY.
import { rmSync } from 'node:fs';

export async function removeHome(path: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      rmSync(path, { recursive: true, force: true });
      return;
    } catch (error) {
      if (attempt >= 100) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
