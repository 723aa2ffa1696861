// "Perfect play": the perfect-play databases of every game and rule set
// (GET /api/perfect, docs/API.md): what is installed and its size on
// disk, what the databases bring, what building each size costs (time,
// disk, memory), and, for the operator (the app of this computer, or an
// admin account), a button that builds them in the background, with the
// progress, the time left, pause and resume.

import { h, mount } from '../dom.js';
import { t, lang, fmtNumber } from '../i18n.js';
import { api } from '../api.js';
import { titleOf } from '../catalogue.js';
import { variantName, durationText, bytesText } from '../tablebase.js';

const POLL_MS = 1000;

/** The name of a rule set: "Mühle · Ravensburger", "Dame (French rules)". */
function setTitle(set) {
  if (set.game === 'muehle') return `${titleOf('muehle', lang())} · ${variantName(set.rules)}`;
  return titleOf(set.rules, lang());
}

/** A refusal of the server in the player's language. */
function refusalText(e) {
  const d = e?.detail;
  if (d && typeof d.code === 'string' && d.code.startsWith('perfect.')) {
    const key = `tb.refuse.${d.code.slice('perfect.'.length)}`;
    const p = d.params || {};
    const params = {};
    for (const k of ['need', 'free']) if (p[k] !== undefined) params[k] = bytesText(Number(p[k]));
    const text = t(key, params);
    if (text !== key) return text;
  }
  return e?.message || String(e);
}

export class PerfectView {
  constructor(root) {
    this.root = root;
    this.data = null;
    this.error = null;
    this.timer = null;
    this.dead = false;
    this.setsKey = null;
    this.els = {};
    this.build();
    this.load();
  }

  destroy() {
    this.dead = true;
    clearTimeout(this.timer);
  }

  relabel() {
    this.setsKey = null;
    this.build();
  }

  async load() {
    clearTimeout(this.timer);
    try {
      this.data = await api.perfect();
      this.error = null;
    } catch (e) {
      this.error = e;
    }
    if (this.dead) return;
    this.update();
    const state = this.data?.build?.state;
    if (state === 'running' || state === 'paused') this.timer = setTimeout(() => this.load(), POLL_MS);
  }

  build() {
    this.els.message = h('p', { id: 'pf-message', class: 'pf-message', role: 'status', 'aria-live': 'polite' });
    this.els.notes = h('div', { id: 'pf-notes' });
    this.els.job = h('div', { id: 'pf-job' });
    this.els.sets = h('div', { id: 'pf-sets', class: 'pf-sets' });
    mount(this.root,
      h('section', { class: 'card pf-page' },
        h('h1', { text: t('tb.page.title') }),
        h('p', { text: t('tb.page.intro') }),
        h('p', { text: t('tb.page.bring') }),
        h('ul', { class: 'pf-uses' },
          h('li', { text: t('tb.page.use.computer') }),
          h('li', { text: t('tb.page.use.analysis') }),
          h('li', { text: t('tb.page.use.review') }),
          h('li', { text: t('tb.page.use.puzzles') })),
        h('p', { class: 'small muted', text: t('tb.page.machine') }),
        this.els.notes,
        this.els.message),
      this.els.job,
      this.els.sets);
    this.update();
  }

  update() {
    const d = this.data;
    if (!d) {
      if (this.error) this.els.message.textContent = refusalText(this.error);
      return;
    }
    const notes = [];
    if (!d.enabled) notes.push(h('p', { id: 'pf-off', class: 'pf-note', text: t('tb.page.off') }));
    else if (!d.may_build) notes.push(h('p', { id: 'pf-not-allowed', class: 'pf-note', text: t('tb.page.notAllowed') }));
    mount(this.els.notes, ...notes);
    this.showJob(d.build);
    const key = JSON.stringify([d.sets, d.may_build, d.build?.state]);
    if (key !== this.setsKey) {
      this.setsKey = key;
      mount(this.els.sets, ...d.sets.map((set) => this.setCard(set, d)));
    }
  }

  /** The build running, paused or last finished: progress, time left, pause/resume. */
  showJob(job) {
    if (!job) { mount(this.els.job); return; }
    const set = this.data.sets.find((s) => s.game === job.game && s.rules === job.rules);
    const sizeText = t(set?.unit === 'pieces' ? 'tb.page.size.pieces' : 'tb.page.size.stones', { n: job.size });
    const parts = [
      h('h2', { text: t('tb.job.title', { rules: set ? setTitle(set) : job.rules, size: sizeText }) }),
      h('p', { id: 'pf-job-state', class: 'pf-job-state', 'data-state': job.state,
        text: job.state === 'failed' ? t('tb.job.failed', { error: job.error || '' }) : t(`tb.job.${job.state}`) }),
    ];
    if (job.state === 'running' || job.state === 'paused') {
      const share = job.positions_total > 0 ? job.positions_done / job.positions_total : 0;
      parts.push(
        h('progress', { id: 'pf-progress', max: '1000', value: String(Math.round(share * 1000)), 'aria-label': t('tb.job.progress') }),
        h('p', { id: 'pf-job-files', text: t('tb.job.files', { done: job.files_done, total: job.files_total }) }),
        h('p', { id: 'pf-job-positions', text: t('tb.job.positions', { done: fmtNumber(job.positions_done), total: fmtNumber(job.positions_total) }) }));
      if (job.seconds_left !== null && job.seconds_left !== undefined) {
        parts.push(h('p', { id: 'pf-job-left', text: t('tb.job.left', { time: durationText(job.seconds_left) }) }));
      }
      if (this.data.may_build) {
        parts.push(job.state === 'running'
          ? h('button', { class: 'btn', type: 'button', id: 'pf-pause', onclick: () => this.act(() => api.perfectPause()), text: t('tb.job.pause') })
          : h('button', { class: 'btn primary', type: 'button', id: 'pf-resume', onclick: () => this.act(() => api.perfectResume()), text: t('tb.job.resume') }));
      }
    } else if (job.state === 'done') {
      parts.push(h('p', { id: 'pf-job-files', text: t('tb.job.files', { done: job.files_done, total: job.files_total }) }));
    }
    mount(this.els.job, h('section', { class: 'card pf-job', 'data-state': job.state }, ...parts));
  }

  /** One rule set: what is installed, and each size with its cost and a build button. */
  setCard(set, d) {
    const id = `pf-set-${set.game}-${set.rules}`;
    const busy = d.build && (d.build.state === 'running' || d.build.state === 'paused');
    const installed = set.installed_files > 0
      ? t('tb.page.installed', { n: set.installed_files, size: bytesText(set.installed_bytes) })
      : t('tb.page.none');
    const rows = set.sizes.map((size) => {
      const cost = size.measured || size.estimate;
      const costText = t('tb.page.cost', {
        time: durationText(cost.seconds),
        disk: bytesText(cost.bytes),
        memory: bytesText(cost.memory ?? size.estimate.memory),
      });
      const complete = size.installed === size.files;
      const button = d.may_build && !complete
        ? h('button', { class: 'btn small', type: 'button', id: `${id}-build-${size.size}`, disabled: busy ? true : null,
          onclick: () => this.act(() => api.perfectBuild(set.game, set.rules, size.size)), text: t('tb.page.build') })
        : null;
      return h('li', { class: ['pf-size', complete ? 'complete' : null], 'data-size': String(size.size), 'data-installed': String(size.installed), 'data-files': String(size.files) },
        h('strong', { text: t(set.unit === 'pieces' ? 'tb.page.size.pieces' : 'tb.page.size.stones', { n: size.size }) }),
        h('span', { class: 'pf-files', text: complete ? t('tb.page.complete') : t('tb.page.files', { installed: size.installed, files: size.files }) }),
        h('span', { class: 'pf-cost', text: `${costText} ${t(size.measured ? 'tb.page.measured' : 'tb.page.estimated')}` }),
        button);
    });
    return h('section', { class: 'card pf-set', id, 'data-installed-files': String(set.installed_files), 'data-installed-bytes': String(set.installed_bytes) },
      h('h2', { text: setTitle(set) }),
      h('p', { class: 'pf-installed', text: installed }),
      h('ul', { class: 'pf-sizes' }, ...rows));
  }

  async act(call) {
    this.els.message.textContent = '';
    try {
      await call();
    } catch (e) {
      this.els.message.textContent = refusalText(e);
    }
    await this.load();
  }
}
