/*
 * The status page's robot mower card (docs/mower.md): the "Automatic mowing" switch, the dry run,
 * the mower's activity, the last decision's reason in the page's language, an alert, the API calls
 * left and today's and the last runs, from the station's `mower` (null: no mower control, no card).
 * Everything from the daemon enters the DOM as text; codes are put into words by MowI18n.
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

  function render(mower) {
    $('mower').hidden = !mower;
    if (!mower) return;
    $('mower-automatic').textContent = t(mower.automatic ? 'mowerOn' : 'mowerOff');
    $('mower-dry-run').hidden = !mower.dry_run;
    $('mower-activity').textContent = inWords('act_', mower.activity);
    const decision = mower.decision;
    $('mower-decision').textContent = decision
      ? t('mowerDecisionAt', { reason: reasonOf(decision), time: time.format(new Date(decision.at)) })
      : t('unknown');
    $('mower-budget').textContent = budgetText(mower.budget_left);
    const alert = mower.alert;
    $('mower-alert').hidden = !alert;
    $('mower-alert').textContent = alert
      ? `${t('mowerAlert')}: ${has(`alert_${alert.code}`) ? t(`alert_${alert.code}`) : alert.message}`
      : '';
    const problem = mower.connection_problem;
    $('mower-connection-row').hidden = problem === null;
    const connection = $('mower-connection');
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
    renderRuns($('mower-runs-today'), today, mower.runs.length === 0 ? 'noRuns' : 'noRunToday');
    $('mower-earlier-title').hidden = earlier.length === 0;
    renderRuns($('mower-runs-earlier'), earlier, null);
  }

  window.MowMower = { render };
})();
