# SPDX-License-Identifier: Apache-2.0
"""A small JAX training loop for the GPU suite (issue 27: XLA's autotuner
and timers signal through pinned mapped memory, and its redzone checker
copies a pinned counter that a kernel wrote; syncguard must stay silent and
cost little).

    python3 jax_train.py [STEPS]

A convolution and two dense layers trained with plain SGD on fixed random
data, the step jit-compiled (XLA autotunes the convolution and the GEMMs on
first compile), the loss read back to the host every 10 steps. Prints
compile_s=, step_ms= (mean over the timed steps, after a warm-up),
final_loss= and "check: ok" when the loss went down; exits 77 after
"SKIP: why" without JAX or a GPU.
"""
import sys
import time

try:
    import jax
    import jax.numpy as jnp
except ImportError as e:
    print(f"SKIP: jax not importable: {e}")
    sys.exit(77)
if not any(d.platform == "gpu" for d in jax.devices()):
    print("SKIP: jax sees no GPU")
    sys.exit(77)

STEPS = int(sys.argv[1]) if len(sys.argv) > 1 else 300


def init(key):
    k1, k2, k3 = jax.random.split(key, 3)
    return {
        "conv": jax.random.normal(k1, (16, 3, 3, 3)) * 0.1,  # OIHW
        "w1": jax.random.normal(k2, (16 * 32 * 32, 256)) * 0.01,
        "w2": jax.random.normal(k3, (256, 10)) * 0.05,
    }


def forward(p, x):
    y = jax.lax.conv_general_dilated(x, p["conv"], (1, 1), "SAME",
                                     dimension_numbers=("NCHW", "OIHW", "NCHW"))
    y = jax.nn.relu(y).reshape(x.shape[0], -1)
    y = jax.nn.relu(y @ p["w1"])
    return y @ p["w2"]


def loss_fn(p, x, labels):
    logits = forward(p, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(labels, 10), axis=-1))


@jax.jit
def step(p, x, labels):
    loss, grads = jax.value_and_grad(loss_fn)(p, x, labels)
    return jax.tree_util.tree_map(lambda w, g: w - 0.05 * g, p, grads), loss


def main():
    key = jax.random.PRNGKey(0)
    params = init(key)
    x = jax.random.normal(jax.random.PRNGKey(1), (64, 3, 32, 32))
    labels = jax.random.randint(jax.random.PRNGKey(2), (64,), 0, 10)
    t0 = time.perf_counter()
    params, first = step(params, x, labels)
    first = float(first)
    compile_s = time.perf_counter() - t0
    warm = 20
    for i in range(warm):
        params, loss = step(params, x, labels)
    float(loss)
    t1 = time.perf_counter()
    for i in range(STEPS):
        params, loss = step(params, x, labels)
        if i % 10 == 9:
            float(loss)  # a device-to-host copy into pinned memory
    final = float(loss)
    step_ms = (time.perf_counter() - t1) * 1000.0 / STEPS
    print(f"compile_s={compile_s:.3f} step_ms={step_ms:.4f} first_loss={first:.4f} "
          f"final_loss={final:.4f}")
    ok = final < first
    print("check: ok" if ok else "check: MISMATCH (the loss did not go down)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
