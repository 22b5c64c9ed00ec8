/**
 * {@code distlock tck}: the compatibility kit bound to a store URI and run through the JUnit Platform launcher, with
 * a per-rule report.
 */
package io.distlock.cli.tck;
