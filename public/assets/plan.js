/*
 * The week strip: per lawn of the station's `plan` (GET /v1/stations/{id}), seven days from
 * today (the daemon's time, in the browser's zone) with the planned slots, the week's need
 * against what is planned, the mowing debt and the plan's status with its reason, and failed plan
 * notifications (plan.notifyService) with their cause. Each day is
 * one focusable element with a name that says the day and its slots. All text enters as text.
 */
'use strict';
(() => {
  const { t, lang } = window.MowI18n;
  // Under Home Assistant's ingress the page lives below a prefix (see app.js): the feed's link starts with it too.
  const BASE = document.querySelector('meta[name="mowability-base"]')?.content ?? '';
  const DAYS = 7;
  const dayFormat = new Intl.DateTimeFormat(lang, { weekday: 'short', day: 'numeric', month: 'numeric' });
  const longDayFormat = new Intl.DateTimeFormat(lang, { weekday: 'long', day: 'numeric', month: 'long' });
  const timeFormat = new Intl.DateTimeFormat(lang, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

  /** Minutes as hours and minutes ("7 h 30 min"). */
  function runtime(minutes) {
    const total = Math.max(0, Math.round(minutes));
    const hours = Math.floor(total / 60);
    const rest = total % 60;
    if (hours === 0) return t('minutes', { n: rest });
    return rest === 0 ? t('hours', { n: hours }) : `${t('hours', { n: hours })} ${t('minutes', { n: rest })}`;
  }

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /** Local midnights: today's and the next `DAYS` (setDate keeps them right across a change of summer time). */
  function dayStarts(nowMs) {
    const day = new Date(nowMs);
    day.setHours(0, 0, 0, 0);
    const starts = [];
    for (let index = 0; index <= DAYS; index++) {
      starts.push(day.getTime());
      day.setDate(day.getDate() + 1);
    }
    return starts;
  }

  function slotText(slot) {
    return `${timeFormat.format(new Date(slot.start))}–${timeFormat.format(new Date(slot.end))}`;
  }

  function renderDay(lawn, fromMs, toMs, isToday) {
    const slots = lawn.slots.filter((slot) => Date.parse(slot.start) < toMs && Date.parse(slot.end) > fromMs);
    const beyond = fromMs >= Date.parse(lawn.horizon_end);
    const item = element('li', `plan-day${slots.length > 0 ? ' planned' : ''}${beyond ? ' beyond' : ''}`);
    item.tabIndex = 0;
    const name = element('span', 'plan-day-name', isToday ? `${t('planToday')}, ${dayFormat.format(fromMs)}` : dayFormat.format(fromMs));
    item.append(name);
    const words = [];
    for (const slot of slots) {
      const line = element('span', `plan-slot ${slot.band}${slot.relaxed ? ' relaxed' : ''}`, slotText(slot));
      line.title = slot.reason[lang] ?? slot.reason.en;
      if (slot.relaxed) line.append(element('span', 'plan-relaxed', ` (${t('planRelaxed')})`));
      item.append(line);
      words.push(slot.relaxed ? `${slotText(slot)} (${t('planRelaxed')})` : slotText(slot));
    }
    if (slots.length === 0) item.append(element('span', 'plan-none muted', beyond ? t('planBeyond') : t('planNoSlot')));
    if (slots.length === 0) words.push(beyond ? t('planBeyond') : t('planNoSlot'));
    item.setAttribute('aria-label', `${isToday ? `${t('planToday')}, ` : ''}${longDayFormat.format(fromMs)}: ${words.join(', ')}`);
    return item;
  }

  function renderLawn(lawn, nowMs, showName, access) {
    const box = element('section', 'plan-lawn');
    const titleId = `plan-lawn-${lawn.id}`;
    box.setAttribute('aria-labelledby', titleId);
    const title = element('h4', '', showName ? lawn.name : t('planDays'));
    title.id = titleId;
    const status = element('p', `plan-status ${lawn.status}`);
    // The planner's sentence starts with the status's own words ("Behind: …"): said once, in bold.
    const label = t(`plan_${lawn.status}`);
    const reason = lawn.status_reason[lang] ?? lawn.status_reason.en;
    status.append(element('strong', '', label), ` ${reason.startsWith(label) ? reason.slice(label.length).trimStart() : reason}`);
    const facts = element('p', 'plan-facts');
    facts.append(
      element('span', '', t('planRuntime', { planned: runtime(lawn.planned_minutes), needed: runtime(lawn.runtime_needed_minutes) })),
      ' · ',
      element('span', '', t('planDebt', { mm: Math.round(lawn.debt_mm), runtime: runtime(lawn.debt_minutes) })),
    );
    if (lawn.debt_over_threshold) facts.append(' ', element('span', 'plan-over', t('planDebtOver')));
    const week = element('ol', 'plan-week');
    week.setAttribute('aria-label', t('planDays'));
    const starts = dayStarts(nowMs);
    for (let index = 0; index < DAYS; index++) week.append(renderDay(lawn, starts[index], starts[index + 1], index === 0));
    const calendar = element('p', 'small');
    const link = element('a', '', t('planCalendar'));
    link.href = `${BASE}${lawn.calendar_path}?lang=${lang}`;
    calendar.append(link);
    if (access === 'key') calendar.append(` ${t('planCalendarKey')}`);
    box.append(title, status, facts, week, calendar);
    return box;
  }

  /** Failed plan notifications (plan.notifyService): how many of all, when the last failed and why ('' on the open page). */
  function renderNotify(notify) {
    const line = document.getElementById('plan-notify');
    line.hidden = !notify || notify.failed === 0;
    if (line.hidden) return;
    const total = notify.sent + notify.failed;
    const parts = [t('planNotifyFailed', { service: notify.service, failed: notify.failed, total })];
    if (notify.last_error === null) parts.push(t('planNotifyRecovered'));
    else {
      if (notify.last_error_at)
        parts.push(
          t('planNotifyLast', {
            at: `${dayFormat.format(new Date(notify.last_error_at))} ${timeFormat.format(new Date(notify.last_error_at))}`,
          }),
        );
      parts.push(notify.last_error === '' ? t('planNotifyCauseHidden') : notify.last_error);
    }
    line.textContent = parts.join(' ');
  }

  /** Fills #plan from the station's `plan` (null: no planner, the card stays hidden). */
  function render(plan, nowMs, access) {
    const card = document.getElementById('plan');
    const lawns = plan?.lawns ?? [];
    card.hidden = lawns.length === 0;
    const list = document.getElementById('plan-lawns');
    // Keep the focused day focused across a poll: the strip is rebuilt, its place is kept.
    const focused = list.contains(document.activeElement) ? [...list.querySelectorAll('.plan-day')].indexOf(document.activeElement) : -1;
    list.replaceChildren(...lawns.map((lawn) => renderLawn(lawn, nowMs, lawns.length > 1, access)));
    if (focused >= 0) list.querySelectorAll('.plan-day')[focused]?.focus();
    renderNotify(plan?.notify ?? null);
  }

  window.MowPlan = { render };
})();
