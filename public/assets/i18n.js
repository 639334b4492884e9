/*
 * UI labels in English and German, chosen by the browser's languages. The
 * check reasons come from the daemon and stay German (the API contract);
 * the mowable reason comes in both languages; everything else the daemon
 * sends as data (field names, windows, durations, a refused upload's outcome
 * and a modelled station's provider status as codes) is put into words here;
 * the daemon's English technical details stay English, marked lang="en".
 */
'use strict';
(() => {
  const texts = {
    en: {
      skip: 'Skip to content', title: 'Mowability', stations: 'Stations', overview: 'Overview', index: 'Index',
      mowable: 'Mowable', yes: 'yes', no: 'no', unknown: 'unknown', availability: 'Station', online: 'online', offline: 'offline',
      lastReading: 'Last reading', never: 'no reading yet', ago: '{age} ago', dataQuality: 'Data quality', missing: 'Missing', none: 'nothing',
      full: 'full', partial: 'partial', minimal: 'minimal', modelled: 'modelled',
      modelledHelp: 'No weather station: the readings come from the Open-Meteo weather model for this location (weather data by Open-Meteo.com, CC BY 4.0).',
      rainFromModel: 'Rain from the Open-Meteo weather model: the station\'s rain gauge is not used (weather data by Open-Meteo.com, CC BY 4.0).',
      forecast: 'Forecast', nextWindow: 'Next mowing window: {start} – {end}', minIndex: '(index at least {min})', noWindow: 'No mowing window in the forecast.', forecastUnavailable: 'Forecast unavailable: not received yet (no internet, or the provider is down); see the log.',
      rainIn: 'Rain expected in {minutes} min.', checks: 'Checks', skipped: 'not evaluated', score: 'Score',
      temperature: 'Temperature', soiltemp: 'Soil temperature', rain: 'Rain', wind: 'Wind', humidity: 'Humidity',
      history: 'History', range: 'Time range', chartIndex: 'Index', chartRain: 'Rain (mm/h)', chartTemp: 'Temperature and dew point (°C)', chartHumidity: 'Humidity (%)',
      dewPoint: 'Dew point', forecastIndex: 'Forecast', now: 'now',
      historyNote: 'Rain and temperature come from the database by the minute; index, humidity and dew point are kept there per 10 minutes, so they survive a restart.',
      footer: 'Reasons are given in German.', noStations: 'No stations are configured. Add stations to the configuration (see docs/mqtt.md).',
      unknownStation: 'This station does not exist.', loadFailed: 'The daemon did not answer. Retrying…',
      keyTitle: 'API key needed', keyHelp: 'This page needs an API key. It is kept in this browser only.', keyLabel: 'API key', keySave: 'Show stations',
      keyRejected: 'The key was not accepted.', noData: 'No data in this range yet.', calcError: 'No index could be calculated.',
      topicsHeard: 'Nothing arrived on {subscribed}; the broker did see: {seen}. Check the station\'s "topic".',
      uploadRefused: 'Last upload refused', uploadRefusedCount: '({age} ago; {count} refused since the last accepted reading)',
      refused_missing_credentials: 'The upload carried no station key or ID.', refused_unknown_passkey: 'No configured station has this PASSKEY.',
      refused_unknown_station_id: 'No configured station has this station ID.', refused_wrong_password: 'The station password was wrong.',
      refused_unparsable: 'The upload carried no usable reading.', refused_rejected: 'The reading was not accepted.',
      refused_not_running: 'The station was not running yet.',
      source_waiting: 'No data yet: waiting for the first answer from Open-Meteo.', source_ok: 'Modelled from Open-Meteo (not measured).',
      source_no_data_provider_unreachable: 'No data yet: the weather provider Open-Meteo is unreachable since {since}, retrying.',
      source_provider_unreachable: 'The weather provider Open-Meteo is unreachable since {since}, retrying; the last modelled values are used until they are stale, the gap is filled once it answers.',
      OK: 'OK', WARNING: 'WARNING', BLOCK: 'BLOCK',
      time: 'Time', range24: '24 h', range48: '48 h', range168: '7 days', range336: '14 days',
      minutes: '{n} min', hours: '{n} h', days: '{n} d', minutesLong: '{n} minutes', hoursLong: '{n} hours', daysLong: '{n} days', daysDative: '{n} days', oneMinute: '1 minute', oneHour: '1 hour', oneDay: '1 day',
      historyRain: 'rain history', historyTemperature: 'temperature history', historyBoth: 'rain and temperature history',
      missingHistory: 'Readings for {covered} so far; the {kinds} needs {needed} ({percent} % so far).',
      missingNotReported: 'Not measured by the station: {fields}.', missingNotCurrent: 'No current value: {fields}.',
      skippedMissing: 'not evaluated: no {field}', calcErrorMissing: 'No index: {fields} missing.',
      f_temperature: 'temperature', f_precipitation_rate: 'rain rate', f_humidity: 'humidity', f_wind_speed: 'wind', f_wind_gusts: 'gusts', f_dew_point: 'dew point',
      f_solar: 'sunshine', f_soil_temperature: 'soil temperature', f_soil_moisture: 'soil moisture', f_rain_1h: 'rain in the last hour', f_rain_12h: 'rain in 12 hours',
      f_rain_24h: 'rain in 24 hours', f_rain_14d: 'rain in 14 days', f_minutes_since_rain: 'time since rain', f_min_temp_3h: 'lowest temperature in 3 hours',
      f_min_temp_3d: 'lowest temperature in 3 days', f_min_temp_14d: 'lowest temperature in 14 days',
    },
    de: {
      skip: 'Zum Inhalt', title: 'Mowability', stations: 'Stationen', overview: 'Überblick', index: 'Index',
      mowable: 'Mähbar', yes: 'ja', no: 'nein', unknown: 'unbekannt', availability: 'Station', online: 'online', offline: 'offline',
      lastReading: 'Letzte Messung', never: 'noch keine Messung', ago: 'vor {age}', dataQuality: 'Datenqualität', missing: 'Fehlt', none: 'nichts',
      full: 'vollständig', partial: 'teilweise', minimal: 'minimal', modelled: 'modelliert',
      modelledHelp: 'Keine Wetterstation: die Werte stammen aus dem Wettermodell von Open-Meteo für diesen Ort (Wetterdaten von Open-Meteo.com, CC BY 4.0).',
      rainFromModel: 'Regen aus dem Wettermodell von Open-Meteo: der Regenmesser der Station wird nicht verwendet (Wetterdaten von Open-Meteo.com, CC BY 4.0).',
      forecast: 'Vorhersage', nextWindow: 'Nächstes Mähfenster: {start} – {end}', minIndex: '(Index mindestens {min})', noWindow: 'Kein Mähfenster in der Vorhersage.', forecastUnavailable: 'Vorhersage nicht verfügbar: noch keine empfangen (kein Internet oder der Anbieter ist gestört); siehe Log.',
      rainIn: 'Regen erwartet in {minutes} Min.', checks: 'Prüfungen', skipped: 'nicht bewertet', score: 'Punkte',
      temperature: 'Temperatur', soiltemp: 'Bodentemperatur', rain: 'Regen', wind: 'Wind', humidity: 'Luftfeuchte',
      history: 'Verlauf', range: 'Zeitraum', chartIndex: 'Index', chartRain: 'Regen (mm/h)', chartTemp: 'Temperatur und Taupunkt (°C)', chartHumidity: 'Luftfeuchte (%)',
      dewPoint: 'Taupunkt', forecastIndex: 'Vorhersage', now: 'jetzt',
      historyNote: 'Regen und Temperatur kommen minutengenau aus der Datenbank; Index, Luftfeuchte und Taupunkt liegen dort in 10-Minuten-Schritten und überstehen einen Neustart.',
      footer: 'Begründungen sind deutsch.', noStations: 'Keine Stationen konfiguriert. Stationen in der Konfiguration anlegen (siehe docs/mqtt.md).',
      unknownStation: 'Diese Station gibt es nicht.', loadFailed: 'Der Dienst antwortet nicht. Neuer Versuch…',
      keyTitle: 'API-Schlüssel nötig', keyHelp: 'Diese Seite braucht einen API-Schlüssel. Er bleibt nur in diesem Browser.', keyLabel: 'API-Schlüssel', keySave: 'Stationen zeigen',
      keyRejected: 'Der Schlüssel wurde nicht angenommen.', noData: 'Noch keine Daten in diesem Zeitraum.', calcError: 'Kein Index berechenbar.',
      topicsHeard: 'Auf {subscribed} kam nichts an; der Broker sah: {seen}. Prüfen Sie das „topic“ der Station.',
      uploadRefused: 'Letzter Upload abgelehnt', uploadRefusedCount: '(vor {age}; {count} abgelehnt seit der letzten angenommenen Messung)',
      refused_missing_credentials: 'Der Upload enthielt keinen Stationsschlüssel und keine Kennung.', refused_unknown_passkey: 'Keine konfigurierte Station hat diesen PASSKEY.',
      refused_unknown_station_id: 'Keine konfigurierte Station hat diese Stationskennung.', refused_wrong_password: 'Das Stationspasswort war falsch.',
      refused_unparsable: 'Der Upload enthielt keine verwertbare Messung.', refused_rejected: 'Die Messung wurde nicht angenommen.',
      refused_not_running: 'Die Station lief noch nicht.',
      source_waiting: 'Noch keine Daten: Warten auf die erste Antwort von Open-Meteo.', source_ok: 'Modelliert von Open-Meteo (nicht gemessen).',
      source_no_data_provider_unreachable: 'Noch keine Daten: Der Wetterdienst Open-Meteo ist seit {since} nicht erreichbar, neuer Versuch läuft.',
      source_provider_unreachable: 'Der Wetterdienst Open-Meteo ist seit {since} nicht erreichbar, neuer Versuch läuft; die letzten modellierten Werte gelten, bis sie veraltet sind, die Lücke wird gefüllt, sobald es wieder antwortet.',
      OK: 'OK', WARNING: 'WARNUNG', BLOCK: 'SPERRE',
      time: 'Zeit', range24: '24 Std.', range48: '48 Std.', range168: '7 Tage', range336: '14 Tage',
      minutes: '{n} Min.', hours: '{n} Std.', days: '{n} Tg.', minutesLong: '{n} Minuten', hoursLong: '{n} Stunden', daysLong: '{n} Tage', daysDative: '{n} Tagen', oneMinute: 'einer Minute', oneHour: 'einer Stunde', oneDay: 'einem Tag',
      historyRain: 'Regenverläufe', historyTemperature: 'Temperaturverläufe', historyBoth: 'Regen- und Temperaturverläufe',
      missingHistory: 'Seit {covered} Daten; für {kinds} werden {needed} gebraucht (bisher {percent} %).',
      missingNotReported: 'Von der Station nicht gemessen: {fields}.', missingNotCurrent: 'Kein aktueller Wert: {fields}.',
      skippedMissing: 'nicht bewertet: {field} fehlt', calcErrorMissing: 'Kein Index: {fields} fehlt.',
      f_temperature: 'Temperatur', f_precipitation_rate: 'Regenrate', f_humidity: 'Luftfeuchte', f_wind_speed: 'Wind', f_wind_gusts: 'Böen', f_dew_point: 'Taupunkt',
      f_solar: 'Sonneneinstrahlung', f_soil_temperature: 'Bodentemperatur', f_soil_moisture: 'Bodenfeuchte', f_rain_1h: 'Regen der letzten Stunde', f_rain_12h: 'Regen in 12 Stunden',
      f_rain_24h: 'Regen in 24 Stunden', f_rain_14d: 'Regen in 14 Tagen', f_minutes_since_rain: 'Zeit seit Regen', f_min_temp_3h: 'Tiefsttemperatur in 3 Stunden',
      f_min_temp_3d: 'Tiefsttemperatur in 3 Tagen', f_min_temp_14d: 'Tiefsttemperatur in 14 Tagen',
    },
  };
  const preferred = (navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || 'en']).map((tag) => String(tag).slice(0, 2).toLowerCase());
  const lang = preferred.find((code) => code in texts) || 'en';
  const t = (key, values) => String(texts[lang][key] ?? texts.en[key] ?? key).replace(/\{(\w+)\}/g, (_m, name) => String(values?.[name] ?? ''));
  const dict = texts[lang];
  /** A field's name in words. */
  const field = (name) => (`f_${name}` in dict ? dict[`f_${name}`] : String(name).replace(/_/g, ' '));
  /** A list of fields in words, "a, b and c". */
  const fields = (names) => new Intl.ListFormat(lang, { type: 'conjunction' }).format(names.map(field));
  /** A duration in natural units: minutes below 90, hours below 48, else days; `dative` for German „seit …“. */
  const duration = (minutes, dative = false) => {
    const m = Math.max(1, Math.round(minutes));
    if (m === 1) return t('oneMinute');
    if (m < 90) return t('minutesLong', { n: m });
    const h = Math.round(m / 60);
    if (h < 48) return h === 1 ? t('oneHour') : t('hoursLong', { n: h });
    const d = Math.round(m / 1440);
    if (d === 1) return t('oneDay');
    return t(dative ? 'daysDative' : 'daysLong', { n: d });
  };
  window.MowI18n = {
    /** Both languages' tables: the same keys, and in each text the same {placeholders} (a test checks it). */
    texts,
    lang,
    t,
    /** Whether `key` is a text (the page's codes from the daemon: an unknown one falls back to the daemon's words). */
    has: (key) => key in texts.en,
    field,
    fields,
    duration,
    apply(root) {
      document.documentElement.lang = lang;
      for (const element of root.querySelectorAll('[data-i18n]')) element.textContent = t(element.dataset.i18n);
      for (const element of root.querySelectorAll('[data-i18n-label]')) element.setAttribute('aria-label', t(element.dataset.i18nLabel));
    },
  };
})();
