/*
 * UI labels in English and German, chosen by the browser's languages. The
 * check reasons come from the daemon and stay German (the API contract).
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
      historyNote: 'Index, humidity and dew point are kept in memory and start empty after a restart; rain and temperature come from the database.',
      footer: 'Reasons are given in German.', noStations: 'No stations are configured. Add stations to the configuration (see docs/mqtt.md).',
      unknownStation: 'This station does not exist.', loadFailed: 'The daemon did not answer. Retrying…',
      keyTitle: 'API key needed', keyHelp: 'This page needs an API key. It is kept in this browser only.', keyLabel: 'API key', keySave: 'Show stations',
      keyRejected: 'The key was not accepted.', noData: 'No data in this range yet.', calcError: 'No index: {message}',
      uploadRefused: 'Last upload refused', uploadRefusedText: '{reason} ({age} ago; {count} refused since the last accepted reading)',
      OK: 'OK', WARNING: 'WARNING', BLOCK: 'BLOCK',
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
      historyNote: 'Index, Luftfeuchte und Taupunkt liegen im Speicher und beginnen nach einem Neustart leer; Regen und Temperatur kommen aus der Datenbank.',
      footer: 'Begründungen sind deutsch.', noStations: 'Keine Stationen konfiguriert. Stationen in der Konfiguration anlegen (siehe docs/mqtt.md).',
      unknownStation: 'Diese Station gibt es nicht.', loadFailed: 'Der Dienst antwortet nicht. Neuer Versuch…',
      keyTitle: 'API-Schlüssel nötig', keyHelp: 'Diese Seite braucht einen API-Schlüssel. Er bleibt nur in diesem Browser.', keyLabel: 'API-Schlüssel', keySave: 'Stationen zeigen',
      keyRejected: 'Der Schlüssel wurde nicht angenommen.', noData: 'Noch keine Daten in diesem Zeitraum.', calcError: 'Kein Index: {message}',
      uploadRefused: 'Letzter Upload abgelehnt', uploadRefusedText: '{reason} (vor {age}; {count} abgelehnt seit der letzten angenommenen Messung)',
      OK: 'OK', WARNING: 'WARNUNG', BLOCK: 'SPERRE',
    },
  };
  const preferred = (navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || 'en']).map((tag) => String(tag).slice(0, 2).toLowerCase());
  const lang = preferred.find((code) => code in texts) || 'en';
  const t = (key, values) => String(texts[lang][key] ?? texts.en[key] ?? key).replace(/\{(\w+)\}/g, (_m, name) => String(values?.[name] ?? ''));
  window.MowI18n = {
    lang,
    t,
    apply(root) {
      document.documentElement.lang = lang;
      for (const element of root.querySelectorAll('[data-i18n]')) element.textContent = t(element.dataset.i18n);
      for (const element of root.querySelectorAll('[data-i18n-label]')) element.setAttribute('aria-label', t(element.dataset.i18nLabel));
    },
  };
})();
