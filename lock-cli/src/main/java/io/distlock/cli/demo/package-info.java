/**
 * {@code distlock demo}: the points, flash-sale and fencing stories played by separate JVMs ("services") that share
 * a lock store and a file standing for the database, first without the lock and then with it.
 */
package io.distlock.cli.demo;
