/** Moves a file, copying when the two paths are on different file systems (a temp dir often is). */
import { copyFile, rename, rm } from 'node:fs/promises';

export async function moveFile(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await copyFile(from, to);
    await rm(from, { force: true });
  }
}
