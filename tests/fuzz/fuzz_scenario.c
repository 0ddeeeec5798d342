/* libFuzzer target: the scenario reader (mcd_scenario_load_string), which
 * loads the robots' URDFs and builds the model. Relative URDF paths resolve
 * against MCDYN_FUZZ_MODELS (the repository's models/, set by
 * tools/fuzz.sh), so the seeds from models/ reach model building. */
#include "fuzz_input.h"
#include "mcdyn/scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *yaml = fuzz_string(data, size);
    if (!yaml) return 0;
    mcd_scenario *sc = NULL;
    mcd_error err;
    if (mcd_scenario_load_string(yaml, "fuzz.yaml", getenv("MCDYN_FUZZ_MODELS"), &sc, &err) ==
        MCD_OK)
        mcd_scenario_free(sc);
    free(yaml);
    return 0;
}
