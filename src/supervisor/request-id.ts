// The id of a request waiting for the human, as they type it (`roz approve
// k7qm`): a hook's own frame id is 21 characters on 2.1.197's command hooks
// (pid, time and random, for matching replies on its connection), too long to
// read off one screen and type into another. These are 4 characters from an
// alphabet without look-alikes (no 0/o, 1/l/i), drawn at random and never
// reused within the run (a decided request's id still names it in the
// history). Guessing one gains nothing: the control socket that answers by id
// is the human's, out of the agent's reach (docs/supervisor.md).
import { randomInt } from 'node:crypto';

const ALPHABET = '23456789abcdefghjkmnpqrstuvwxyz';
const LENGTH = 4;

export class RequestIds {
  private readonly issued = new Set<string>();

  next(): string {
    // 31^4 ≈ 923k ids: a collision is rare, and redrawn; a run that used a good part of them gets longer ones.
    for (let len = LENGTH; ; len++) {
      for (let tries = 0; tries < 16; tries++) {
        let id = '';
        for (let i = 0; i < len; i++) id += ALPHABET[randomInt(ALPHABET.length)];
        if (!this.issued.has(id)) {
          this.issued.add(id);
          return id;
        }
      }
    }
  }
}
