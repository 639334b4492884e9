/*
 * The status page's four charts (uPlot, served from the npm package): index
 * over the OK/WARNING/BLOCK bands with the forecast dashed after "now", rain
 * per clock hour as bars, temperature and dew point, humidity. Colours come
 * from the CSS variables, so they follow dark mode.
 */
'use strict';
(() => {
  const { t } = window.MowI18n;
  const BANDS = [
    [0, 40, '--band-block'],
    [40, 70, '--band-warn'],
    [70, 100, '--band-ok'],
  ];
  const HEIGHT = 200;
  const $ = (id) => document.getElementById(id);
  const css = (name) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  const charts = {};

  function bandsPlugin() {
    return {
      hooks: {
        drawClear: [
          (u) => {
            const { ctx, bbox } = u;
            for (const [low, high, colour] of BANDS) {
              const top = u.valToPos(high, 'y', true);
              const bottom = u.valToPos(low, 'y', true);
              ctx.fillStyle = css(colour);
              ctx.fillRect(bbox.left, top, bbox.width, bottom - top);
            }
          },
        ],
      },
    };
  }

  function nowLinePlugin(nowSeconds) {
    return {
      hooks: {
        draw: [
          (u) => {
            const x = u.valToPos(nowSeconds, 'x', true);
            if (x < u.bbox.left || x > u.bbox.left + u.bbox.width) return;
            u.ctx.save();
            u.ctx.strokeStyle = css('--muted');
            u.ctx.setLineDash([2, 4]);
            u.ctx.beginPath();
            u.ctx.moveTo(x, u.bbox.top);
            u.ctx.lineTo(x, u.bbox.top + u.bbox.height);
            u.ctx.stroke();
            u.ctx.restore();
          },
        ],
      },
    };
  }

  const tickFormats = {
    time: new Intl.DateTimeFormat(window.MowI18n.lang, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
    day: new Intl.DateTimeFormat(window.MowI18n.lang, { weekday: 'short', day: 'numeric' }),
  };

  /** Time ticks in the browser's language: the hour, or the day where a day starts or the range is long. */
  function timeTicks(_u, splits, _axis, _space, increment) {
    return splits.map((seconds) => {
      const date = new Date(seconds * 1000);
      const midnight = date.getHours() === 0 && date.getMinutes() === 0;
      return increment >= 86400 || midnight ? tickFormats.day.format(date) : tickFormats.time.format(date);
    });
  }

  function axes() {
    const stroke = css('--muted');
    const grid = { stroke: css('--grid'), width: 1 };
    return [
      { stroke, grid, ticks: grid, values: timeTicks },
      { stroke, grid, ticks: grid, size: 44 },
    ];
  }

  function chartWidth(id) {
    return Math.max(240, $(id).clientWidth || 300);
  }

  function drawChart(id, options, data, summary) {
    charts[id]?.destroy();
    const element = $(id);
    element.replaceChildren();
    element.setAttribute('aria-label', summary);
    // The time series' label in the page's language (uPlot's own default is English).
    const series = [{ label: window.MowI18n.t('time'), ...options.series[0] }, ...options.series.slice(1)];
    charts[id] = new window.uPlot(
      { width: chartWidth(id), height: HEIGHT, axes: axes(), legend: { live: false }, ...options, series },
      data,
      element,
    );
  }

  /** Rain per clock hour (mm/h): the steps' sums, null for hours without a rain report. */
  function rainPerHour(times, values) {
    const hours = new Map();
    times.forEach((time, i) => {
      const hour = Math.floor(time / 3600) * 3600;
      const mm = values[i];
      if (!hours.has(hour)) hours.set(hour, null);
      if (mm !== null) hours.set(hour, (hours.get(hour) ?? 0) + mm);
    });
    return [[...hours.keys()], [...hours.values()].map((mm) => (mm === null ? null : Math.round(mm * 100) / 100))];
  }

  const last = (values) => [...values].reverse().find((value) => value !== null && value !== undefined) ?? null;

  /** Draws the four charts of a history answer (with its generated_at), the forecast hours dashed after now. */
  function render(history, forecast) {
    if (!history) return;
    const nowSeconds = Math.floor(Date.parse(history.generatedAt) / 1000);
    const future = (forecast?.hours ?? [])
      .map((hour) => [Math.floor(Date.parse(hour.time) / 1000), hour.index])
      .filter(([time]) => time > history.time[history.time.length - 1]);
    const times = [...history.time, ...future.map(([time]) => time)];
    const indexLine = [...history.index, ...future.map(() => null)];
    const forecastLine = [...history.time.map(() => null), ...future.map(([, index]) => index)];
    // The dashed forecast starts at the last known index so the two lines join.
    if (future.length > 0) forecastLine[history.time.length - 1] = last(history.index);
    const summary = (label, value, unit) => `${label}: ${value === null ? t('noData') : `${value}${unit}`}`;
    const indexSeries = [{}, { label: t('chartIndex'), stroke: css('--line'), width: 2 }];
    if (future.length > 0) indexSeries.push({ label: t('forecastIndex'), stroke: css('--line'), width: 2, dash: [6, 6] });
    drawChart(
      'chart-index',
      {
        scales: { x: { time: true }, y: { range: [0, 100] } },
        series: indexSeries,
        plugins: [bandsPlugin(), nowLinePlugin(nowSeconds)],
      },
      future.length > 0 ? [times, indexLine, forecastLine] : [history.time, history.index],
      summary(t('chartIndex'), last(history.index), ''),
    );
    drawChart(
      'chart-rain',
      {
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max ?? 1)] } },
        series: [
          {},
          {
            label: t('chartRain'),
            stroke: css('--rain'),
            fill: css('--rain'),
            paths: window.uPlot.paths.bars({ size: [0.9, 24] }),
            points: { show: false },
          },
        ],
        plugins: [nowLinePlugin(nowSeconds)],
      },
      rainPerHour(history.time, history.rain_mm),
      summary(t('chartRain'), last(history.rain_mm), ' mm'),
    );
    drawChart(
      'chart-temp',
      {
        scales: { x: { time: true } },
        series: [
          {},
          { label: t('temperature'), stroke: css('--block'), width: 2 },
          { label: t('dewPoint'), stroke: css('--line2'), width: 2 },
        ],
        plugins: [nowLinePlugin(nowSeconds)],
      },
      [history.time, history.temperature, history.dew_point],
      summary(t('temperature'), last(history.temperature), ' °C'),
    );
    drawChart(
      'chart-humidity',
      {
        scales: { x: { time: true }, y: { range: [0, 100] } },
        series: [{}, { label: t('humidity'), stroke: css('--rain'), width: 2 }],
        plugins: [nowLinePlugin(nowSeconds)],
      },
      [history.time, history.humidity],
      summary(t('humidity'), last(history.humidity), ' %'),
    );
  }

  window.MowCharts = {
    render,
    resize() {
      for (const [id, chart] of Object.entries(charts)) chart.setSize({ width: chartWidth(id), height: HEIGHT });
    },
  };
})();
