// vitest setupFiles: every test file removes its temp folders when it is done (test/helpers/temp-dir.ts).
import { afterAll } from 'vitest';
import { removeTempDirs } from './temp-dir.js';

afterAll(removeTempDirs);
