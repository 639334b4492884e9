/** The mosquitto runner lives with the benchmarks, which use it too (the product and the benchmarks never import test code). */
export * from '../../bench/lib/mosquitto.js';
