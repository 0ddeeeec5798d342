/* libFuzzer target: the URDF reader (mcd_urdf_load_string) up to a built
 * model. Any input must give a model or a message, never a crash. */
#include "fuzz_input.h"
#include "mcdyn/model.h"
#include "mcdyn/urdf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *xml = fuzz_string(data, size);
    if (!xml) return 0;
    mcd_urdf_options opt = mcd_urdf_default_options();
    mcd_model *model = NULL;
    mcd_error err;
    if (mcd_urdf_load_string(xml, "fuzz.urdf", &opt, &model, &err) == MCD_OK) mcd_model_free(model);
    free(xml);
    return 0;
}
