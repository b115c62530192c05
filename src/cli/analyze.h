/* `warpsim analyze`: the static kernel analyzer on a PTX file (cli/analyze.c). */
#ifndef WARPSIM_CLI_ANALYZE_H
#define WARPSIM_CLI_ANALYZE_H

int ws_cli_analyze(int argc, char **argv);
/* `warpsim llc-analyze`: the shared-LLC reuse-distance analyses on a trace. */
int ws_cli_llc(int argc, char **argv);

#endif
