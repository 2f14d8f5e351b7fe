/*
 * The smallest useful player-protocol bot (docs/protocol.md), for the protocol
 * benchmarks (Benchmarks/Benchmarks/ProtocolBenchmarks): it answers `ready` to `hello`
 * and, to each `turn`, the first legal id; every other message needs no answer; it
 * exits on `quit` or at the end of its input. No JSON library: it finds the message
 * type and `"legal":[{"id":` with strstr, so its time per decision is one scan of the
 * line, the least any bot can spend.
 *
 * Lines may be of any length (the protocol allows 1 MiB): the buffer grows as needed.
 *
 * Build: cc -O2 -o minimal_bot minimal_bot.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether the message's type is `type`. The lab writes `type` as the first member, so
 * the first `"type":"` of the line is the message's (an observation may hold others). */
static int is_type(const char *line, const char *type) {
    const char *at = strstr(line, "\"type\":\"");
    if (at == NULL) return 0;
    at += strlen("\"type\":\"");
    size_t n = strlen(type);
    return strncmp(at, type, n) == 0 && at[n] == '"';
}

int main(void) {
    char *line = NULL;
    size_t capacity = 0;
    ssize_t length;
    /* Replies go out at once: the lab waits for each one. */
    setvbuf(stdout, NULL, _IONBF, 0);
    while ((length = getline(&line, &capacity, stdin)) != -1) {
        (void)length;
        if (is_type(line, "turn")) {
            const char *legal = strstr(line, "\"legal\":[{\"id\":");
            if (legal == NULL) {
                fprintf(stderr, "minimal_bot: a turn without legal actions\n");
                return 1;
            }
            long id = strtol(legal + strlen("\"legal\":[{\"id\":"), NULL, 10);
            char reply[64];
            int n = snprintf(reply, sizeof reply, "{\"type\":\"action\",\"id\":%ld}\n", id);
            if (fwrite(reply, 1, (size_t)n, stdout) != (size_t)n) return 1;
        } else if (is_type(line, "hello")) {
            static const char ready[] =
                "{\"type\":\"ready\",\"name\":\"minimal_bot\",\"version\":\"1\",\"follow\":false}\n";
            if (fwrite(ready, 1, sizeof ready - 1, stdout) != sizeof ready - 1) return 1;
        } else if (is_type(line, "quit")) {
            break;
        }
        /* start, end, played: no answer. */
    }
    free(line);
    return 0;
}
