// zod/mini ships without error messages ("Invalid input"); roz's schemas are
// read by people and agents, so every module with a schema imports this first.
// Only the English locale: importing the locales index would bundle all of them.
import { config } from 'zod/mini';
import en from 'zod/v4/locales/en.js';

config(en());
