/*
 * The status page's robot mower card (docs/mower.md): the "Automatic mowing" switch, the dry run,
 * the mower's activity, the last decision's reason in the page's language, an alert, the API calls
 * left and today's and the last runs, from the station's `mower` (null: no mower control, no card).
 * With several lawns each with its own mower (`lawn_mowers`), one card per lawn, titled with the lawn's
 * name: the first lawn's is the page's own card, each further one a copy of it whose ids end in
 * `--<lawn>`. Everything from the daemon enters the DOM as text; codes are put into words by MowI18n.
 */
'use strict';
(() => {
  const { t, lang, has } = window.MowI18n;
  const $ = (id) => document.getElementById(id);
  const dayTime = new Intl.DateTimeFormat(lang, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  const time = new Intl.DateTimeFormat(lang, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  const inWords = (prefix, code) => (has(`${prefix}${code}`) ? t(`${prefix}${code}`) : String(code));

  /** The reason in the page's language (the daemon sends both). */
  const reasonOf = (item) => (lang === 'de' ? item.reason_de : item.reason) ?? item.reason ?? '';

  function budgetText(left) {
    const parts = [
      left.per_day === null ? null : t('budgetDay', { n: left.per_day }),
      left.per_week === null ? null : t('budgetWeek', { n: left.per_week }),
      left.per_month === null ? null : t('budgetMonth', { n: left.per_month }),
    ].filter((part) => part !== null);
    return parts.length === 0 ? t('budgetNone') : parts.join(', ');
  }

  function runLine(run) {
    const format = run.today ? time : dayTime;
    const outcome = run.outcome === null ? t('runOpen') : inWords('outcome_', run.outcome);
    const reason = run.outcome === null ? '' : reasonOf(run);
    return t('runLine', {
      start: format.format(new Date(run.started_at)),
      end: run.ended_at === null ? '…' : time.format(new Date(run.ended_at)),
      minutes: run.mowing_minutes,
      by: inWords('started_', run.started_by),
      outcome: reason ? t('outcomeWithReason', { outcome, reason }) : outcome,
    });
  }

  function renderRuns(list, runs, empty) {
    list.replaceChildren();
    for (const run of runs) {
      const item = document.createElement('li');
      item.textContent = runLine(run);
      list.append(item);
    }
    if (runs.length === 0 && empty) {
      const item = document.createElement('li');
      item.className = 'muted';
      item.textContent = t(empty);
      list.append(item);
    }
  }

  /** One card: `part(name)` finds the card's element of that name (`mower-<name>`). */
  function renderCard(part, mower) {
    part('automatic').textContent = t(mower.automatic ? 'mowerOn' : 'mowerOff');
    part('dry-run').hidden = !mower.dry_run;
    part('activity').textContent = inWords('act_', mower.activity);
    const decision = mower.decision;
    part('decision').textContent = decision
      ? t('mowerDecisionAt', { reason: reasonOf(decision), time: time.format(new Date(decision.at)) })
      : t('unknown');
    part('budget').textContent = budgetText(mower.budget_left);
    const alert = mower.alert;
    part('alert').hidden = !alert;
    part('alert').textContent = alert ? `${t('mowerAlert')}: ${has(`alert_${alert.code}`) ? t(`alert_${alert.code}`) : alert.message}` : '';
    const problem = mower.connection_problem;
    part('connection-row').hidden = problem === null;
    const connection = part('connection');
    connection.textContent = problem === null ? '' : t('mowerConnectionProblem');
    if (problem) {
      // The daemon's technical detail stays English, marked so.
      const detail = document.createElement('span');
      detail.lang = 'en';
      detail.textContent = ` ${problem}`;
      connection.append(detail);
    }
    const today = mower.runs.filter((run) => run.today);
    const earlier = mower.runs.filter((run) => !run.today);
    renderRuns(part('runs-today'), today, mower.runs.length === 0 ? 'noRuns' : 'noRunToday');
    part('earlier-title').hidden = earlier.length === 0;
    renderRuns(part('runs-earlier'), earlier, null);
  }

  const lawnIdOf = (card) => card.dataset.lawn;

  /** A further lawn's card: a copy of the page's card, every id suffixed with `--<lawn>`. */
  function furtherCard(lawn, after) {
    const card = $('mower').cloneNode(true);
    card.id = `mower--${lawn}`;
    card.dataset.lawn = lawn;
    for (const element of card.querySelectorAll('[id]')) element.id = `${element.id}--${lawn}`;
    card.setAttribute('aria-labelledby', `mower-title--${lawn}`);
    after.after(card);
    return card;
  }

  /**
   * `mower`: the first lawn's (null: none); `lawnMowers`: every lawn's [{lawn, name, mower}], the first
   * lawn's first (absent from an older daemon: the first lawn's card alone, untitled).
   */
  function render(mower, lawnMowers) {
    const list = Array.isArray(lawnMowers) ? lawnMowers : [];
    const titled = list.length > 1;
    const first = $('mower');
    const primary = mower && list[0] ? list[0] : null;
    first.hidden = !mower;
    $('mower-title').textContent = titled && primary ? t('mowerTitleLawn', { name: primary.name }) : t('mowerTitle');
    if (mower) renderCard((name) => $(`mower-${name}`), mower);
    const further = list.slice(mower ? 1 : 0);
    const wanted = new Set(further.map((entry) => entry.lawn));
    for (const card of document.querySelectorAll('section[data-lawn]')) if (!wanted.has(lawnIdOf(card))) card.remove();
    let after = first;
    for (const entry of further) {
      const card = $(`mower--${entry.lawn}`) ?? furtherCard(entry.lawn, after);
      card.hidden = false;
      const part = (name) => $(`mower-${name}--${entry.lawn}`);
      part('title').textContent = t('mowerTitleLawn', { name: entry.name });
      renderCard(part, entry.mower);
      after = card;
    }
  }

  window.MowMower = { render };
})();
