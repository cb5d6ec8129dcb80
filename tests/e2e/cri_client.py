#!/usr/bin/python3
"""The CRI e2e suite's client: speaks runtime.v1 to containerd's CRI plugin over its unix
socket as a kubelet does, through stubs compiled from the CRI api.proto (CRI_STUBS names
their directory).

  cri_client.py SOCKET call METHOD JSON [PATH]   one RuntimeService/ImageService call; the
      request is JSON with the proto's field names; prints the response as JSON, or only
      the value at the dotted PATH (a list index is a number)
  cri_client.py SOCKET wait-exit ID SECONDS      waits for container ID to exit; prints
      "EXIT_CODE REASON"
  cri_client.py SOCKET exec ID TIMEOUT CMD...    ExecSync: the command's stdout and stderr
      on ours, its exit code as ours
  cri_client.py SOCKET bench HANDLER POD_JSON CTR_JSON   one timed pod: prints
      "START_SECONDS EXIT_SECONDS": RunPodSandbox + CreateContainer + StartContainer, and
      from RunPodSandbox to the container's exit seen; then removes the pod
A gRPC error prints "METHOD: CODE: DETAILS" on stderr and exits 2.
"""
import json
import os
import sys
import time

sys.path.insert(0, os.environ["CRI_STUBS"])
import grpc  # noqa: E402
from google.protobuf import json_format  # noqa: E402
import api_pb2  # noqa: E402
import api_pb2_grpc  # noqa: E402

CALL_TIMEOUT = 60
EXITED = api_pb2.ContainerState.Value("CONTAINER_EXITED")


class Cri:
    def __init__(self, socket):
        channel = grpc.insecure_channel("unix://" + socket)
        self.runtime = api_pb2_grpc.RuntimeServiceStub(channel)
        self.image = api_pb2_grpc.ImageServiceStub(channel)

    def call(self, method, request):
        """Calls METHOD with REQUEST (a dict); the response message."""
        service = self.image if hasattr(self.image, method) else self.runtime
        stub = getattr(service, method, None)
        if stub is None:
            raise SystemExit("cri_client: no CRI method %s" % method)
        message = json_format.ParseDict(request, getattr(api_pb2, method + "Request")())
        try:
            return stub(message, timeout=CALL_TIMEOUT)
        except grpc.RpcError as err:
            print("%s: %s: %s" % (method, err.code().name, err.details()), file=sys.stderr)
            sys.exit(2)


def as_dict(message):
    return json_format.MessageToDict(message, preserving_proto_field_name=True,
                                     including_default_value_fields=True)


def pick(value, path):
    for key in path.split(".") if path else []:
        value = value[int(key)] if isinstance(value, list) else value.get(key, "")
    return value


def print_value(value):
    if isinstance(value, bool):
        value = "true" if value else "false"
    print(value if isinstance(value, (str, int, float)) else json.dumps(value, sort_keys=True))


def wait_exit(cri, container, seconds):
    """Polls ContainerStatus (what the kubelet's PLEG does) until the container exited."""
    deadline = time.monotonic() + seconds
    while True:
        status = cri.call("ContainerStatus", {"container_id": container}).status
        if status.state == EXITED:
            return status
        if time.monotonic() > deadline:
            raise SystemExit("cri_client: %s did not exit in %ss" % (container, seconds))
        time.sleep(0.02)


def bench(cri, handler, pod, ctr):
    begin = time.monotonic()
    sandbox = cri.call("RunPodSandbox", {"config": pod, "runtime_handler": handler}).pod_sandbox_id
    container = cri.call("CreateContainer", {"pod_sandbox_id": sandbox, "config": ctr,
                                             "sandbox_config": pod}).container_id
    cri.call("StartContainer", {"container_id": container})
    started = time.monotonic()
    wait_exit(cri, container, CALL_TIMEOUT)
    exited = time.monotonic()
    cri.call("StopPodSandbox", {"pod_sandbox_id": sandbox})
    cri.call("RemovePodSandbox", {"pod_sandbox_id": sandbox})
    print("%.6f %.6f" % (started - begin, exited - begin))


def main(argv):
    if len(argv) < 3:
        raise SystemExit(__doc__)
    cri = Cri(argv[1])
    verb, args = argv[2], argv[3:]
    if verb == "call" and len(args) in (2, 3):
        response = as_dict(cri.call(args[0], json.loads(args[1])))
        print_value(pick(response, args[2] if len(args) == 3 else ""))
    elif verb == "wait-exit" and len(args) == 2:
        status = wait_exit(cri, args[0], float(args[1]))
        print(status.exit_code, status.reason)
    elif verb == "exec" and len(args) >= 3:
        response = cri.call("ExecSync", {"container_id": args[0], "timeout": int(args[1]),
                                         "cmd": args[2:]})
        sys.stdout.buffer.write(response.stdout)
        sys.stderr.buffer.write(response.stderr)
        sys.exit(response.exit_code)
    elif verb == "bench" and len(args) == 3:
        bench(cri, args[0], json.loads(args[1]), json.loads(args[2]))
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
