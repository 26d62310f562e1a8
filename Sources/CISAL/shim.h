#include <isa-l/igzip_lib.h>
// The level-1 work buffer size ISA-L suggests (a macro expression Swift cannot import).
static const uint32_t glmap_isal_level1_buffer_size = ISAL_DEF_LVL1_DEFAULT;
