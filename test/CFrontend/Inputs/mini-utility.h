// A small std::swap for the C front end's tests: the front end knows the
// function by its name and namespace, so the tests need no standard
// library's header.
namespace std {
template <typename T> void swap(T &a, T &b) {
  T c = a;
  a = b;
  b = c;
}
} // namespace std
