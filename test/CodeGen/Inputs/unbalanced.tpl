// A template whose sections leave scopes to each other, as tensor.cu.tpl's
// composed_open and composed_close did.

//@ section opens
namespace {namespace} {{

//@ section closes
}} // namespace {namespace}

//@ section balanced
struct {name} {{ int a[{{{count}}}]; }};
