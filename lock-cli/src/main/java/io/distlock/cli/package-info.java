/**
 * The {@code distlock} command: its entry point, the subcommands that talk to one store ({@code inspect},
 * {@code release}), exit codes, and the small output helpers they share.
 */
package io.distlock.cli;
