/** The {@code distlock chaos} subcommand: the fault suite of lock-chaos on the command line. */
package io.distlock.cli.chaos;
