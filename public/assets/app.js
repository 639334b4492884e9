/*
 * The status page: polls GET /v1/stations and /v1/stations/{id} every few
 * seconds, the history when the range changes and now and then, and draws
 * four uPlot charts. Everything from the daemon enters the DOM as text;
 * reasons go through MowReasons (only <b> becomes markup).
 */
'use strict';
(() => {
  performance.mark('mowability:script');
  const { t, lang } = window.MowI18n;
  /** The field each check needs (its skipped reason names it; the page says it in its own language). */
  const CHECK_FIELDS = {
    temperature: 'temperature',
    soiltemp: 'soil_temperature',
    rain: 'precipitation_rate',
    wind: 'wind_speed',
    humidity: 'humidity',
  };
  const meta = (name) => document.querySelector(`meta[name="${name}"]`)?.content ?? '';
  const ACCESS = meta('mowability-access');
  // Under Home Assistant's ingress the page lives below a prefix (/api/hassio_ingress/<token>): every
  // URL the page builds starts with it. Empty everywhere else.
  const BASE = meta('mowability-base');
  const local = (path) => `${BASE}${path}`;
  const POLL_MS = Math.max(100, Number(meta('mowability-poll-ms')) || 15000);
  const HISTORY_EVERY_MS = Math.max(POLL_MS * 4, 1000);
  const KEY_STORAGE = 'mowability.apiKey';
  const STEPS = { 24: '10m', 48: '10m', 168: '1h', 336: '1h' };
  const $ = (id) => document.getElementById(id);

  const state = { stationId: null, hours: 48, historyAt: 0, fetchedAt: 0, ageSeconds: null, stopped: false, detail: null, history: null };
  const pathStation = /^\/stations\/([^/]+)\/?$/.exec(location.pathname.slice(BASE.length));
  if (pathStation) state.stationId = decodeURIComponent(pathStation[1]);

  class AuthError extends Error {}

  async function getJson(url) {
    const headers = { accept: 'application/json' };
    const key = localStorage.getItem(KEY_STORAGE);
    if (ACCESS === 'key' && key) headers.authorization = `Bearer ${key}`;
    const response = await fetch(local(url), { headers, cache: 'no-store' });
    if (response.status === 401 || response.status === 403) throw new AuthError();
    const body = await response.json();
    if (!response.ok) throw Object.assign(new Error(body.message || response.statusText), { status: response.status });
    return body;
  }

  function say(text) {
    $('message').textContent = text;
  }

  function formatAge(seconds) {
    if (seconds < 90) return `${Math.round(seconds)} s`;
    if (seconds < 5400) return t('minutes', { n: Math.round(seconds / 60) });
    if (seconds < 172800) return t('hours', { n: Math.round(seconds / 3600) });
    return t('days', { n: Math.round(seconds / 86400) });
  }

  /** The "Missing" row in one or a few sentences: history still filling, values not current, fields not measured. */
  function missingText(gaps) {
    const parts = [];
    const history = gaps.history;
    if (history) {
      const kinds = history.kinds.length === 2 ? 'historyBoth' : history.kinds[0] === 'rain' ? 'historyRain' : 'historyTemperature';
      parts.push(
        t('missingHistory', {
          covered: window.MowI18n.duration(history.covered_minutes, true),
          kinds: t(kinds),
          needed: window.MowI18n.duration(history.needed_minutes),
          percent: history.covered_percent,
        }),
      );
    }
    if (gaps.not_current.length > 0) parts.push(t('missingNotCurrent', { fields: window.MowI18n.fields(gaps.not_current) }));
    if (gaps.not_reported.length > 0) parts.push(t('missingNotReported', { fields: window.MowI18n.fields(gaps.not_reported) }));
    return parts.length === 0 ? t('none') : parts.join(' ');
  }

  const renderCharts = () => window.MowCharts.render(state.history, state.detail?.forecast ?? null);
  const dateFormat = new Intl.DateTimeFormat(window.MowI18n.lang, {
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  const timeFormat = new Intl.DateTimeFormat(window.MowI18n.lang, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

  function renderNav(stations) {
    const list = $('station-list');
    list.replaceChildren();
    for (const station of stations) {
      const item = document.createElement('li');
      const link = document.createElement('a');
      link.href = local(`/stations/${encodeURIComponent(station.id)}`);
      if (station.id === state.stationId) link.setAttribute('aria-current', 'page');
      const dot = document.createElement('span');
      dot.className = `dot ${station.availability === 'online' ? (station.status ?? '') : ''}`;
      dot.setAttribute('aria-hidden', 'true');
      const label = station.index === null ? '–' : String(station.index);
      const origin = station.origin === 'modelled' ? ` · ${t('modelled')}` : '';
      link.append(dot, document.createTextNode(`${station.name} · ${label} · ${t(station.availability)}${origin}`));
      item.append(link);
      list.append(item);
    }
  }

  function renderChecks(checks) {
    const list = $('checks');
    list.replaceChildren();
    for (const check of checks) {
      const item = document.createElement('li');
      item.className = 'check';
      const head = document.createElement('div');
      head.className = 'check-head';
      const name = document.createElement('span');
      name.className = 'check-name';
      name.textContent = t(check.name);
      head.append(name);
      if (check.executed && check.score !== null) {
        const meter = document.createElement('meter');
        Object.assign(meter, { min: 0, max: 100, low: 40, high: 70, optimum: 100, value: check.score });
        meter.setAttribute('aria-label', `${t(check.name)}: ${t('score')} ${check.score}`);
        const status = document.createElement('span');
        status.className = `check-status ${check.status ?? ''}`;
        status.textContent = `${check.score} · ${t(check.status ?? '') || ''}`;
        head.append(meter, status);
      } else {
        const skipped = document.createElement('span');
        skipped.className = 'muted';
        skipped.textContent = t('skipped');
        head.append(skipped);
      }
      item.append(head);
      if (!check.executed && check.skipped_reason) {
        const why = document.createElement('p');
        why.className = 'muted small';
        why.textContent = t('skippedMissing', { field: window.MowI18n.field(CHECK_FIELDS[check.name] ?? check.name) });
        item.append(why);
      }
      const reasons = check.executed ? check.reasons : [];
      if (reasons.length > 0) {
        const list2 = document.createElement('ul');
        // The model's reasons are German (the API contract; the footer says so on the English page).
        list2.lang = 'de';
        for (const reason of reasons) {
          const line = document.createElement('li');
          window.MowReasons.render(line, reason);
          list2.append(line);
        }
        item.append(list2);
      }
      list.append(item);
    }
  }

  /** The forecast card; also shown without a forecast when a setting keeps it from being fetched (its English text names the setting). */
  function renderForecast(forecast, problem) {
    $('forecast').hidden = forecast === null && !problem;
    $('forecast-problem').hidden = !problem;
    if (problem) sentenceWithDetail($('forecast-problem'), t('forecastProblem'), problem);
    else $('forecast-problem').textContent = '';
    if (forecast === null) {
      $('forecast-window').textContent = '';
      $('forecast-rain').textContent = '';
      return;
    }
    const window_ = forecast.next_window;
    $('forecast-window').textContent =
      forecast.available === false
        ? t('forecastUnavailable')
        : window_
          ? `${t('nextWindow', { start: dateFormat.format(new Date(window_.start)), end: dateFormat.format(new Date(window_.end)) })}${window_.min_index === null ? '' : ` ${t('minIndex', { min: window_.min_index })}`}`
          : t('noWindow');
    $('forecast-rain').textContent =
      forecast.rain_expected_in_minutes === null ? '' : t('rainIn', { minutes: Math.round(forecast.rain_expected_in_minutes) });
  }

  function renderAge() {
    if (state.ageSeconds === null) {
      $('last-reading').textContent = t('never');
      return;
    }
    $('last-reading').textContent = t('ago', { age: formatAge(state.ageSeconds + (Date.now() - state.fetchedAt) / 1000) });
  }

  function renderDetail(station, generatedAt) {
    state.detail = station;
    $('station').hidden = false;
    $('station-name').textContent = station.name;
    document.title = `${station.name} · ${t('title')}`;
    const offline = station.availability !== 'online';
    $('index-box').className = `index ${station.status ?? ''}${offline ? ' offline' : ''}`;
    $('index-value').textContent = station.index === null ? '–' : String(station.index);
    $('index-status').textContent = station.status === null ? t('unknown') : t(station.status);
    $('mowable').textContent = station.mowable === null ? t('unknown') : t(station.mowable ? 'yes' : 'no');
    $('mowable-reason').textContent = (lang === 'de' ? station.mowable_reason_de : station.mowable_reason) ?? station.mowable_reason ?? '';
    $('availability').textContent = t(station.availability);
    $('availability').className = `badge ${station.availability}`;
    $('data-quality').textContent = station.data_quality === null ? t('unknown') : t(station.data_quality);
    $('origin').hidden = station.origin !== 'modelled';
    $('origin').textContent = t('modelled');
    $('origin').title = t('modelledHelp');
    // A broken gauge replaced by the model (gapFill.rain "model"); a modelled station says so with its badge.
    const rainNote = station.origin !== 'modelled' && station.rain_source === 'model' ? t('rainFromModel') : null;
    renderSourceMessage(station, rainNote);
    $('missing').textContent = missingText(station.data_gaps);
    state.ageSeconds = station.last_reading_age_seconds;
    state.fetchedAt = Date.now();
    renderAge();
    renderCalcError(station.error);
    renderChecks(station.checks);
    renderForecast(station.forecast, station.forecast_problem ?? null);
    // The week strip's "today" is the daemon's (ages are relative to its generated_at too).
    window.MowPlan.render(station.plan ?? null, Date.parse(generatedAt), ACCESS);
    renderRefused(station.last_upload_refused);
    renderTopicsHeard(station.topics_heard);
    window.MowMower.render(station.mower, station.lawn_mowers);
  }

  /** A silent station while the broker saw other topics under the same first level: which ones. */
  function renderTopicsHeard(heard) {
    const element = $('topics-heard');
    element.hidden = !heard;
    element.textContent = heard ? t('topicsHeard', { subscribed: heard.subscribed, seen: heard.seen.join(', ') }) : '';
  }

  /**
   * Fills `element` with a sentence in the page's language and, when there is one, the daemon's
   * English technical detail after it, marked lang="en" (as the English page marks German reasons).
   */
  function sentenceWithDetail(element, sentence, detail) {
    element.textContent = sentence;
    if (!detail) return;
    if (sentence) element.append(' ');
    const english = document.createElement('span');
    english.lang = 'en';
    english.textContent = detail;
    element.append(english);
  }

  /** Why there is no index, said from the error's code; the daemon's English message only for a code the page does not know, marked lang="en". */
  function renderCalcError(error) {
    const element = $('calc-error');
    element.hidden = error === null;
    if (!error) {
      element.textContent = '';
    } else if (error.code === 'MISSING_REQUIRED_FIELDS' && error.missing.length > 0) {
      element.textContent = t('calcErrorMissing', { fields: window.MowI18n.fields(error.missing) });
    } else {
      sentenceWithDetail(element, t('calcError'), error.message);
    }
  }

  /** A modelled station's provider status, said from its code (the English message only for an unknown code); or the rain note. */
  function renderSourceMessage(station, rainNote) {
    const element = $('source-message');
    element.hidden = station.source_message === null && rainNote === null;
    const key = `source_${station.source_status}`;
    if (station.source_message !== null && station.source_status && window.MowI18n.has(key)) {
      const unreachable = station.source_status.endsWith('provider_unreachable');
      const since = station.source_since ? timeFormat.format(new Date(station.source_since)) : '–';
      sentenceWithDetail(element, t(key, { since }), unreachable && station.source_error ? `(${station.source_error})` : '');
    } else if (station.source_message !== null) {
      sentenceWithDetail(element, '', station.source_message);
    } else {
      element.textContent = rainNote ?? '';
    }
  }

  /** Refusals whose English reason names what could not be read (the field, the date): shown after the sentence. */
  const REFUSAL_DETAILS = new Set(['unparsable']);

  /** "Last upload refused": why (from its code), when, and how many since the last accepted reading. */
  function renderRefused(refused) {
    $('refused-row').hidden = !refused;
    if (!refused) return;
    const age = formatAge(Math.max(0, (Date.now() - Date.parse(refused.at)) / 1000));
    const key = `refused_${refused.outcome}`;
    const known = window.MowI18n.has(key);
    // The time of a rejected reading is the usual reason, and a technical one ("dateutc: ...").
    const detail = !known || REFUSAL_DETAILS.has(refused.outcome) || refused.reason.startsWith('dateutc') ? refused.reason : '';
    const element = $('upload-refused');
    sentenceWithDetail(element, known ? t(key) : '', detail);
    element.append(` ${t('uploadRefusedCount', { age, count: refused.count })}`);
  }

  /** Fetches the history; draws it unless the caller draws after the station's details arrived. */
  async function loadHistory(draw = true) {
    if (!state.stationId) return;
    const id = encodeURIComponent(state.stationId);
    const body = await getJson(`/v1/stations/${id}/history?hours=${state.hours}&step=${STEPS[state.hours]}`);
    state.history = { ...body.history, generatedAt: body.generated_at };
    state.historyAt = Date.now();
    if (draw) renderCharts();
  }

  // The MQTT side's trouble (a refused login, a TLS setting, an ACL that drops the daemon's messages)
  // is the daemon's, not a station's: /health's checks.mqtt, shown above every station while it lasts.
  async function showBrokerProblem() {
    const mqtt = await fetch(local('/health'), { cache: 'no-store' })
      .then((response) => response.json())
      .then(
        (body) => body.mfi?.checks?.mqtt,
        () => undefined,
      );
    const shown = mqtt && (mqtt.status === 'error' || mqtt.code === 'access_limited');
    const banner = $('broker-problem');
    // The English page shows /health's own line; another language says it in its words, the English detail after it.
    if (!shown) banner.textContent = '';
    else if (lang === 'en') banner.textContent = `MQTT: ${mqtt.message}`;
    else sentenceWithDetail(banner, t(`broker_${mqtt.code}`), mqtt.message);
    banner.hidden = !shown;
  }

  async function poll() {
    // With the station known (its own URL, or any later poll) the three requests go out together.
    const known = state.stationId;
    const wantHistory = Date.now() - state.historyAt >= HISTORY_EVERY_MS || !state.history;
    const detailOf = (id) => getJson(`/v1/stations/${encodeURIComponent(id)}`);
    const [list, , early, history] = await Promise.all([
      getJson('/v1/stations'),
      showBrokerProblem().catch(() => undefined),
      known ? detailOf(known).catch((error) => error) : null,
      known && wantHistory ? loadHistory(false).catch((error) => error) : null,
    ]);
    const { stations } = list;
    if (!state.stationId && stations.length > 0) state.stationId = stations[0].id;
    renderNav(stations);
    if (stations.length === 0) return say(t('noStations'));
    if (!stations.some((station) => station.id === state.stationId)) return say(t('unknownStation'));
    for (const result of [early, history]) if (result instanceof Error) throw result;
    const { station, generated_at: generatedAt } = early ?? (await detailOf(state.stationId));
    say('');
    renderDetail(station, generatedAt);
    if (!state.firstRendered) performance.mark('mowability:station');
    if (!known) await loadHistory(false);
    // Charts are rebuilt only with new history (the forecast line changes with it often enough).
    if (!known || wantHistory) renderCharts();
    if (!state.firstRendered) {
      state.firstRendered = true;
      performance.mark('mowability:rendered');
    }
    document.body.dataset.updated = String(Date.now());
  }

  function showKeyForm(rejected) {
    state.stopped = true;
    $('key-form').hidden = false;
    $('station').hidden = true;
    $('key-error').textContent = rejected ? t('keyRejected') : '';
    $('key-input').focus();
  }

  async function tick() {
    if (state.stopped) return;
    try {
      await poll();
    } catch (error) {
      if (error instanceof AuthError) return showKeyForm(localStorage.getItem(KEY_STORAGE) !== null);
      say(t('loadFailed'));
    }
    setTimeout(tick, POLL_MS);
  }

  function setRange(hours) {
    state.hours = hours;
    for (const button of document.querySelectorAll('#ranges button'))
      button.setAttribute('aria-pressed', String(Number(button.dataset.hours) === hours));
    loadHistory().catch(() => say(t('loadFailed')));
  }

  window.MowI18n.apply(document);
  for (const button of document.querySelectorAll('#ranges button'))
    button.addEventListener('click', () => setRange(Number(button.dataset.hours)));
  for (const button of document.querySelectorAll('#ranges button'))
    button.setAttribute('aria-pressed', String(Number(button.dataset.hours) === state.hours));
  $('key-form').addEventListener('submit', (event) => {
    event.preventDefault();
    localStorage.setItem(KEY_STORAGE, $('key-input').value.trim());
    $('key-form').hidden = true;
    state.stopped = false;
    tick();
  });
  let resizeTimer;
  window.addEventListener('resize', () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => window.MowCharts.resize(), 150);
  });
  // Chart colours come from the CSS variables: redraw when the system switches light/dark.
  window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => renderCharts());
  setInterval(() => state.detail && renderAge(), 1000);
  tick();
})();
