// A game's record (GET /api/games/{id}/record) copied to the clipboard,
// for the game page and the archive.

import { api } from './api.js';
import { copyText, toast } from './dom.js';
import { t } from './i18n.js';

/** Copies the record of game `id` and says so; rejects with the API's error. */
export async function copyRecordOf(id) {
  const record = await api.record(id);
  await copyText(record);
  toast(t('game.recordCopied'));
}
